"""The results page: verdict card, plots, pitfalls and the "why" trace."""
