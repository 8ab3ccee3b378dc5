"""The guest side of the protocol as the host sees it: files, stream, console."""
