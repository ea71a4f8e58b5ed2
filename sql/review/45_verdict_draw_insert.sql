-- 45_verdict_draw_insert: record how a verdict-level sample was drawn.
-- Reads: nothing. Creates: one row of review_verdict_draws.
-- Parameters: $sample_id, $benchmark, $expansion, $seed, $size, $order_by, $retriever, $depth,
-- $beyond, $scope.
INSERT INTO review_verdict_draws
    (sample_id, benchmark, expansion, seed, size, order_by, retriever, depth, beyond, scope)
VALUES ($sample_id, $benchmark, $expansion, $seed, $size, $order_by, $retriever, $depth, $beyond,
        $scope)
