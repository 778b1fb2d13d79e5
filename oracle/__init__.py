"""Differential oracle: runs programs under eager and under targets and gives verdicts."""
