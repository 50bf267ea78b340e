"""Test-run set-up: hypothesis profiles, and a guard for the top-level ``codecs/`` folder.

Hypothesis explores at random on a developer's machine ("dev"), so new cases keep turning up
there; CI ("ci", when ``CI`` is set) is derandomized: the examples are a fixed function of each
test, so a run is red only when the code changed, never by the luck of the draw. A case found
locally is pinned with ``@example(...)`` beside its test.

pytest's importlib mode names a codec's test file ``codecs.<vendor>.tests.test_x`` and imports the
parent ``codecs`` from this folder, replacing the standard library's ``codecs`` module (text
encodings then break mid-run). Giving the already-imported stdlib module an empty ``__path__``
lets pytest hang the test modules under it without re-importing it. Nothing else reads it.
"""

import codecs
import os

from hypothesis import HealthCheck, settings

if not hasattr(codecs, "__path__"):
    codecs.__path__ = []  # type: ignore[attr-defined]  # see the module docstring

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
