/*
 * cli/status_cluster.h — `hyeongse status --cluster`: the live workers (engines,
 * nets, backend, rate, leases, failures) and the broker's queue and uptime, from
 * one STATUS_REPLY, as an aligned table or as one JSON object (keys in
 * docs/PROTOCOL.md, "status --cluster"). Implemented in cli/status_cluster.c.
 */
#ifndef HS_CLI_STATUS_CLUSTER_H
#define HS_CLI_STATUS_CLUSTER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/wire.h"

/*
 * Prints r's cluster view. A field the broker did not send (an older broker:
 * no has_cluster, no has_stats) is "-" in the table and null in JSON, so the
 * JSON keys are the same whatever the broker. Returns the exit status: 0, or 1
 * when the broker withheld the view because the key is not an admin's (its
 * cluster field with uptime 0; docs/PROTOCOL.md, "status --cluster"): then
 * nothing goes to out and the reason goes to stderr.
 */
int hs__cli_print_cluster(FILE *out, const hs_wire_status_reply_t *r, bool json);

#endif
