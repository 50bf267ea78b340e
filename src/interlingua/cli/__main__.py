"""``python -m interlingua.cli``: the same entry point as the ``interlingua`` script."""

from . import main

raise SystemExit(main())
