"""Test set-up: the builders module sits beside the tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
