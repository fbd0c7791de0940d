"""Tabu walks side by side with an elite (Ro-TS tenure ranges and long-term aspiration): `-a elite`."""
