-- 07_platform_coverage: per task, how many items have a platform (the dependency rule's input)
-- and where those platforms came from (the first word of platform_source: doc.tool_name,
-- field, task, description; 'unrecorded' for items loaded before platform_source existed).
-- Reads: items. Creates: nothing. Parameters: $benchmark.
SELECT coalesce(task, '(none)') AS task,
       count(*) AS items,
       count(platform) AS with_platform,
       count(DISTINCT platform) AS platforms,
       string_agg(DISTINCT CASE WHEN platform IS NOT NULL
                  THEN coalesce(split_part(split_part(platform_source, ':', 1), ' ', 1),
                                'unrecorded') END, ', ') AS sources
FROM items
WHERE benchmark = $benchmark
GROUP BY ALL
ORDER BY task;
