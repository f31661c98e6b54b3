"""Vegas Table Companion: reads the dice, keeps the rules, shows the scoreboard."""

__version__ = "0.1.0"
