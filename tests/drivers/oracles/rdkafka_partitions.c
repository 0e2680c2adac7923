#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>

int main(void) {
    char err[512];
    /* No bootstrap.servers: the client never connects anywhere. The partitioner does
       not read its topic argument, but a real topic handle is passed all the same. */
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "0", err, sizeof err);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (!rk) { fprintf(stderr, "rd_kafka_new: %s\n", err); return 1; }
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, "slotgen", NULL);
    if (!rkt) { fprintf(stderr, "rd_kafka_topic_new failed\n"); return 1; }
    static const int32_t counts[] = {3, 12, 100};
    char line[4096];
    unsigned char key[2048];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strcspn(line, "\r\n"), len = n / 2;
        for (size_t i = 0; i < len; i++) {
            unsigned int byte;
            sscanf(line + 2 * i, "%2x", &byte);
            key[i] = (unsigned char)byte;
        }
        for (int c = 0; c < 3; c++)
            printf(c ? " %d" : "%d", (int)rd_kafka_msg_partitioner_consistent(
                                         rkt, key, len, counts[c], NULL, NULL));
        printf("\n");
    }
    rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(rk);
    return 0;
}
