"""End-to-end tests: the real bot and the real discord.py client against a fake Discord on 127.0.0.1."""
