"""The loopback vendor server the transport tests drive: ``interlingua.testing``'s own (it is also
what :class:`interlingua.testing.FakeVendor` answers on), re-exported under its old name."""

from interlingua.testing._loopback import Answer, Fault, Received, VendorServer

__all__ = ["Answer", "Fault", "Received", "VendorServer"]
