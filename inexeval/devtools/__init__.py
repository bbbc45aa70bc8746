"""Tools for developers of inexeval (documentation generators); not used when evaluating."""
