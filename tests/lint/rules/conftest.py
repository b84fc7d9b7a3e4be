"""Make this folder's helper module importable whatever pytest import mode is used."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
