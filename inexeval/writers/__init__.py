"""Writers: the only place numbers are formatted."""
