"""The wizard's "Compare setups" step (``page.ComparePage``): chart, details, table."""
