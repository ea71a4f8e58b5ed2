"""The screens: query list, query detail, tool detail, filters, review, help."""
