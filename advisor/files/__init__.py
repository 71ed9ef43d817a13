"""Reading and writing the user's files, for every layer: where the data files are, guarded
reads, line-aware YAML, validation messages, errors that name the file, field and line, atomic
writes, operating-system errors in words, and the log file."""
