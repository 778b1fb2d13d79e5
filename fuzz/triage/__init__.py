"""Triage: root causes of findings, KNOWN against the corpus, the blame ladder across torch installs and
what Dynamo executed."""
