"""lumen-chat: a small third-party wire for interlingua's tests. Its bodies are the IR's own JSON
(a request is ``Request.to_json_dict()``, an answer ``Response``'s), so it carries every part and
setting; what it cannot carry is another vendor's: their provider options, native parts and
tools, and reasoning they signed. Installed by its entry point, it joins the conformance suite
with its data in ``_conformance.py`` and no edit to interlingua or its tests."""

from ._codec import LumenChatCodec

__all__ = ["LumenChatCodec"]
