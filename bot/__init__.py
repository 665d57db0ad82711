"""Stationmaster bot: everything with I/O (storage, service, Discord adapter, local CLI)."""
