"""Rounds: who acts, what is legal, and how a turn ends."""
