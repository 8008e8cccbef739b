# Command-line tools.
