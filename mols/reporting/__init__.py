"""Reports over results folders: pymoo indicators against reference sets, pandas tables, matplotlib plots."""

from __future__ import annotations

from mols.reporting.indicators import HV_POINT, INDICATORS, indicators, normalise, reference_set
from mols.reporting.report import Report, build_report, write_report
from mols.reporting.runs import Run, load_run, load_runs

__all__ = ["HV_POINT", "INDICATORS", "Report", "Run", "build_report", "indicators", "load_run", "load_runs",
           "normalise", "reference_set", "write_report"]
