"""Aggregated tabu search: its host loop, the best admissible move on the host and on the device, and device walks."""
