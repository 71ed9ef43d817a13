"""Dialogs besides the wizard: importing nvidia-smi output, and the unexpected-error dialog."""
