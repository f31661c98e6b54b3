"""Odds at the table: exact (or, for Las Vegas, simulated) probabilities computed from engine states.

Every calculator here is pure: it takes a game state (and, where it samples, a seeded generator and a
time budget from the caller) and returns plain JSON data, numbers and ids only; the page renders the
words. ``companion.odds.service`` picks the calculator for the game being played.
"""
