"""The model catalog, for users: look a model up, list a provider's models, add or override one.

Each codec ships its vendor's facts (``models.toml`` in its package, each fact with its source);
encoders read them to drop or map what the target model refuses. Next month's model is one
``[[model]]`` table, in that file or in one of your own::

    from interlingua import models

    models.register({"id": "acme-2", "extends": "acme-1", "max_output_tokens": 64000}, provider="acme")
    models.load("my-models.toml")            # the shipped files' format; each entry names its provider
    models.find("acme", "acme-2-20270101")   # -> ModelSpec (a dated snapshot finds its family)
"""

from __future__ import annotations

from ._catalog import Catalog, catalog, discover, forget, load, register
from ._model_spec import LEVELS, CatalogError, ModelSpec, ThinkingRules


def find(provider: str, model: str) -> ModelSpec | None:
    """``model``'s entry in ``provider``'s catalog (codecs' data files are found through the
    installed codecs), or None when it is unknown."""
    return _catalog_for(provider).find(model)


def has_catalog(provider: str) -> bool:
    """Whether an installed codec ships (or the user added) models for ``provider``."""
    return _catalog_for(provider).has_data()


def all_models(provider: str | None = None) -> list[ModelSpec]:
    """Every model of every installed codec's catalog (or of ``provider``'s), plus yours."""
    discover()
    from ._catalog import catalogs

    found = catalogs()
    names = [provider] if provider is not None else sorted(found)
    return [spec for name in names if name in found for spec in found[name].models()]


def family(provider: str, model: str) -> ModelSpec | None:
    """The entry whose rules an encoder applies to ``model`` as its family's defaults (a
    ``family`` prefix claims it and no entry names it), or None; see ``UnknownModel.family``."""
    return _catalog_for(provider).family(model)


def _catalog_for(provider: str) -> Catalog:
    discover()
    return catalog(provider)


__all__ = [
    "LEVELS",
    "CatalogError",
    "ModelSpec",
    "ThinkingRules",
    "all_models",
    "family",
    "find",
    "forget",
    "has_catalog",
    "load",
    "register",
]
