"""Benchmarks: accuracy against published measurements, latency budgets."""
