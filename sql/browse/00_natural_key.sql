-- 00_natural_key: the order in which the TUI lists ids and names (issue 25.9): runs of digits
-- compare as numbers, so apibank_query_2 comes before apibank_query_10 and G2_x before G10_x.
-- Reads: nothing. Creates: TEMP MACRO natural_key(s), a list to ORDER BY (then by s itself):
-- the runs of digits and of other characters in turn, each run of digits led by the character
-- whose code is its length, so a shorter number sorts first (any length compares right, no
-- padding to a fixed width) and a number before any text at the same place (the codes are
-- below every printable character); a leading zero counts as a digit (2 < 02 < 10). A list of
-- strings rather than of (number, text) structs: one element type, and no integer cast that a
-- run of more digits than BIGINT holds would overflow.
-- Parameters: none.
CREATE OR REPLACE TEMP MACRO natural_key(s) AS
    list_transform(
        regexp_extract_all(s, '[0-9]+|[^0-9]+'),
        lambda p: CASE WHEN p[1] BETWEEN '0' AND '9'
                       THEN chr(CAST(length(p) AS INTEGER)) || p
                       ELSE p END
    );
