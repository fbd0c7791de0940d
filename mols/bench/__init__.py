"""Benchmarks behind `mols bench`: each measures its columns side by side in one run."""
