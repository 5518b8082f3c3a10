"""Test set-up: the builders module sits beside the tests; CI runs hypothesis on a known seed."""

import os
import secrets
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# CI: no deadline on a shared machine, failing examples printed as a reproducible blob, and
# one seed for the whole run, chosen here and printed in the header so a failure can be
# replayed with `python -m pytest --hypothesis-seed=N`.
settings.register_profile("ci", deadline=None, print_blob=True)
ON_CI = bool(os.environ.get("CI"))
if ON_CI:
    settings.load_profile("ci")


def pytest_configure(config):
    if ON_CI and config.getoption("hypothesis_seed", None) is None:
        from hypothesis import core

        seed = int(os.environ.get("HYPOTHESIS_SEED") or secrets.randbelow(2**32))
        core.global_force_seed = seed
        config.hypothesis_ci_seed = seed


def pytest_report_header(config):
    seed = getattr(config, "hypothesis_ci_seed", None)
    if seed is not None:
        return f"hypothesis profile 'ci', seed {seed} (replay: --hypothesis-seed={seed})"
    return None
