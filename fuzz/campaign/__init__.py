"""Campaigns: the loop that generates and checks programs, its directory and journal, reductions run
during the campaign, the timeline, generation steering (--bias, known-bug avoidance) and the Dask cluster."""
