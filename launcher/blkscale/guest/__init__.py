"""The guest side of the protocol, seen from the host."""
