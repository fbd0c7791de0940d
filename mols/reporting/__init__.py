"""Reports over results folders: pymoo indicators against reference sets, pandas tables, matplotlib plots,
attainment surfaces and EAF differences (moocore), rank tests over seeds (scipy)."""

from __future__ import annotations

from mols.reporting.attainment import attainment_surfaces, eaf_difference
from mols.reporting.groups import Group, GroupKey, group_runs
from mols.reporting.indicators import HV_POINT, INDICATORS, indicators, normalise, reference_set
from mols.reporting.ranktest import hv_rank_tests
from mols.reporting.report import Report, build_report, write_report
from mols.reporting.runs import Run, load_run, load_runs

__all__ = ["HV_POINT", "INDICATORS", "Group", "GroupKey", "Report", "Run", "attainment_surfaces", "build_report",
           "eaf_difference", "group_runs", "hv_rank_tests", "indicators", "load_run", "load_runs", "normalise",
           "reference_set", "write_report"]
