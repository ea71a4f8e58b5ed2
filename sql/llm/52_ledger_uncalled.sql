-- 52_ledger_uncalled: pipeline outputs that no LLM call made, by stage and who decided them:
-- the reference shortcut ('reference'), the offline judge, the pre-screen
-- ('heuristic:prescreen': candidates an LLM verifier never saw), the platform rule and the
-- audit cap ('platform_rule', 'audit_cap', 'safety_limit'), imports. Combinations beyond the
-- audit budget, those the platform rule rejected and those repeating a kept tool set
-- ('repeated') are never stored (combination_products counts them, schemas 064, 066 and 071):
-- they are added from there.
-- Reads: subqueries, verdicts, combinations, combination_products. Creates: nothing (a result set
-- stage, decided_by, tasks). Parameters: none.
SELECT 'decompose' AS stage, coalesce(judge, '?') AS decided_by,
       count(DISTINCT (benchmark, expansion, query_id)) AS tasks
FROM subqueries WHERE call_id IS NULL
GROUP BY ALL
UNION ALL
SELECT 'verify', judge, count(*)
FROM verdicts WHERE call_id IS NULL
GROUP BY ALL
UNION ALL
SELECT 'audit', decided_by, CAST(sum(n) AS BIGINT)
FROM (
    SELECT coalesce(judge, status) AS decided_by, count(*) AS n
    FROM combinations WHERE call_id IS NULL AND status <> 'pending'
    GROUP BY ALL
    UNION ALL
    SELECT judge, unstored FROM combination_products WHERE unstored > 0
    UNION ALL
    SELECT 'platform_rule', rejected_platform FROM combination_products
    WHERE rejected_platform > 0
    UNION ALL
    SELECT 'repeated', repeated FROM combination_products WHERE repeated > 0
)
GROUP BY ALL
ORDER BY list_position(['decompose', 'verify', 'audit'], stage), decided_by;
