-- 43_redundant_platforms: which providers of the library are redundant: provider pairs with many
-- equivalent endpoints, from the accepted verdicts of an expansion (either direction counts:
-- an endpoint of one that stood in for an endpoint of the other, or was stood in for).
-- Reads: equivalence_edges (the rows of 40, registered), items. Creates: nothing (a result set).
-- Parameters: $benchmark, $min_pairs (INTEGER: the fewest equivalent endpoint pairs shown).
-- Per unordered pair (platform_a < platform_b): endpoint pairs linked by an accepted verdict,
-- the steps (sub-queries) behind them, the endpoints of each side with an equivalent on the
-- other, each side's endpoints in the library, and the share of each side covered by the other.
-- Pairs within one provider and items without a platform are left out.
WITH pairs AS (
    SELECT least(reference_platform, candidate_platform) AS platform_a,
           greatest(reference_platform, candidate_platform) AS platform_b,
           CASE WHEN reference_platform < candidate_platform THEN reference ELSE candidate END AS a,
           CASE WHEN reference_platform < candidate_platform THEN candidate ELSE reference END AS b
    FROM equivalence_edges
    WHERE reference_platform IS NOT NULL AND candidate_platform IS NOT NULL
      AND reference_platform <> candidate_platform
),
sizes AS (
    SELECT platform, count(*) AS endpoints FROM items
    WHERE benchmark = $benchmark AND platform IS NOT NULL
    GROUP BY platform
),
agg AS (
    SELECT platform_a, platform_b,
           count(DISTINCT (a, b)) AS equivalent_pairs, count(*) AS steps,
           count(DISTINCT a) AS covered_a, count(DISTINCT b) AS covered_b
    FROM pairs
    GROUP BY ALL
)
SELECT g.platform_a, g.platform_b, g.equivalent_pairs, g.steps,
       g.covered_a, sa.endpoints AS endpoints_a, g.covered_b, sb.endpoints AS endpoints_b,
       round(g.covered_a / sa.endpoints, 3) AS share_a, round(g.covered_b / sb.endpoints, 3) AS share_b
FROM agg g
JOIN sizes sa ON sa.platform = g.platform_a
JOIN sizes sb ON sb.platform = g.platform_b
WHERE g.equivalent_pairs >= $min_pairs
ORDER BY g.equivalent_pairs DESC, g.steps DESC, greatest(share_a, share_b) DESC, g.platform_a,
         g.platform_b;
