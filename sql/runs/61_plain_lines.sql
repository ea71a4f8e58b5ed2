-- 61_plain_lines: the non-blank lines of one TREC file (a run or qrels), split into fields.
-- Reads: the file at $path (DuckDB's read_text: the bytes as they are, no CSV sniffing).
-- Creates: TEMP TABLE plain_lines (line, fields, tabs, plain: the file's), replacing the last
-- file's.
-- Parameters: $path (an absolute path with no glob character: toolex.runs.plain checks).
-- Lines are what split("\n") gives, numbered from 1, as toolex.loaders.readers.read_text and
-- line.split() read them; a blank line (spaces, tabs, carriage returns only) is skipped. plain:
-- the file holds printable ASCII, spaces, tabs and carriage returns only, and no '%' (no id to
-- percent-decode), so the fields are exactly line.split()'s: the runs of ' ', tab and CR between
-- them (every other character str.split() splits on is outside that set). A file not plain goes
-- whole to the reference reader, which names what is wrong and where. A single-spaced file (one
-- space between fields, none at either end of a line: as trec_eval and toolex write them) is
-- split on that space, five times cheaper than the regular expression any other needs. Both
-- tests read the whole file: a character class and substring searches take 8 ms of a 1.4 MB run
-- where one regular expression with alternatives (and anchors) each took 9.5.
CREATE OR REPLACE TEMP TABLE plain_lines AS
WITH file AS (
    SELECT string_split(content, chr(10)) AS parts,
           NOT regexp_matches(content, '[^\t\n\r -~]') AND NOT contains(content, '%') AS plain,
           NOT (contains(content, chr(9)) OR contains(content, chr(13))
                OR contains(content, '  ') OR contains(content, chr(10) || ' ')
                OR contains(content, ' ' || chr(10)) OR starts_with(content, ' ')
                OR ends_with(content, ' ')) AS single_spaced
    FROM read_text($path)
), lines AS (
    SELECT plain, single_spaced, generate_subscripts(parts, 1) AS line, unnest(parts) AS body
    FROM file
)
SELECT line,
       CASE WHEN single_spaced THEN string_split(body, ' ')
            ELSE regexp_split_to_array(trim(body, ' ' || chr(9) || chr(13)), '[ \t\r]+')
       END AS fields,
       CASE WHEN single_spaced THEN 0 ELSE length(body) - length(replace(body, chr(9), '')) END
           AS tabs,
       plain
FROM lines
WHERE CASE WHEN single_spaced THEN body <> '' ELSE trim(body, ' ' || chr(9) || chr(13)) <> '' END;
