"""The transport tests' loopback vendor server, loaded from its file (``tests`` is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_NAME = "interlingua_test_vendor_server"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).parents[1] / "transport" / "vendor_server.py")
    assert _spec is not None and _spec.loader is not None
    sys.modules[_NAME] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules[_NAME])
_module = sys.modules[_NAME]
Answer = _module.Answer
Fault = _module.Fault
VendorServer = _module.VendorServer
