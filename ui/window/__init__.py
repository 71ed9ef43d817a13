"""The main window: steps on the left, one page at a time; the profile it edits as a document
(open, save, autosave), the answers model the pages write into, and the live recomputation."""
