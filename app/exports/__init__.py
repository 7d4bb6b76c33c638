"""Organisation-wide data export: everything a tenant holds, as a downloadable archive."""
