"""Text for every layer: both languages (English and Simplified Chinese), numbers as people read
them, and the terminal width of Chinese text."""
