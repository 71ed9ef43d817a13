"""Dialogs besides the wizard: importing nvidia-smi output, the unexpected-error dialog, and
Help → About."""
