"""Every fault-injection backend is caught, with its verdict kind, within 100 generated programs."""

import pytest

from fuzz.campaign.selftest import programs_to_detection
from oracle._faults import FAULTS, fault_spec
from tests.conftest import runner_for


# slow-ngb is the hang fault with a twin that returns: its verdict is in tests/oracle/test_truth_table.py, on a
# program whose twin run is known to be quick (here the twin's of a generated program would be timed under load)
@pytest.mark.slow
@pytest.mark.parametrize("fault", sorted(set(FAULTS) - {"slow-ngb"}))
def test_fault_is_detected_with_its_verdict_kind_within_100_programs(request, fault):
    runner = runner_for(request, FAULTS[fault][1])  # the hang fault waits out two timeouts: short ones
    count, verdict = programs_to_detection(runner, fault_spec(fault), seed=0, limit=100)
    assert count is not None, f"fault:{fault} not detected in 100 programs"
    assert verdict.kind == FAULTS[fault][1], verdict
