/* slotgen's C header against the slot code of Redis itself (crc16.c's table loop and
 * cluster.c's keyHashSlot, as hiredis-cluster and other C clients copy them), written here
 * as Redis writes it, its table filled at start rather than listed. One process, gcc -O2.
 *
 *   gcc -O2 -I MODULE_DIR bench.c -o bench && ./bench KEY_DIR ROUNDS
 *
 * Prints tab-separated rows: language, function, key type, case, length, code, ns per key
 * (the best of ROUNDS rounds over every key of the case). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "slotgen.h"

static unsigned short crc16tab[256];

static unsigned short crc16(const char *buf, int len) {
    int counter;
    unsigned short crc = 0;
    for (counter = 0; counter < len; counter++)
        crc = (crc << 8) ^ crc16tab[((crc >> 8) ^ *buf++) & 0x00FF];
    return crc;
}

static unsigned int keyHashSlot(const char *key, int keylen) {
    int s, e;
    for (s = 0; s < keylen; s++)
        if (key[s] == '{') break;
    if (s == keylen) return crc16(key, keylen) & 0x3FFF;
    for (e = s + 1; e < keylen; e++)
        if (key[e] == '}') break;
    if (e == keylen || e == s + 1) return crc16(key, keylen) & 0x3FFF;
    return crc16(key + s + 1, e - s - 1) & 0x3FFF;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static char *keys[20000];
static int lens[20000], count;

/* volatile: the compiler keeps every call */
static volatile unsigned long sink;

#define BEST(rounds, call)                                              \
    ({                                                                  \
        double min = -1;                                                \
        for (int r = 0; r < (rounds); r++) {                            \
            double start = now();                                       \
            unsigned long s = 0;                                        \
            for (int i = 0; i < count; i++) s += (call);                \
            double ns = now() - start;                                  \
            sink = s;                                                   \
            if (min < 0 || ns < min) min = ns;                          \
        }                                                               \
        (long)(min / count + 0.5);                                      \
    })

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bench KEY_DIR ROUNDS\n");
        return 2;
    }
    int rounds = atoi(argv[2]);
    for (int b = 0; b < 256; b++) {
        unsigned short crc = (unsigned short)(b << 8);
        for (int k = 0; k < 8; k++) crc = (crc & 0x8000) ? (unsigned short)((crc << 1) ^ 0x1021) : (unsigned short)(crc << 1);
        crc16tab[b] = crc;
    }
    const char *kinds[] = {"plain", "tag"};
    int lengths[] = {3, 8, 22, 64, 1024};
    static char line[2048];
    for (int k = 0; k < 2; k++) {
        for (int n = 0; n < 5; n++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-%d.txt", argv[1], kinds[k], lengths[n]);
            FILE *f = fopen(path, "r");
            if (!f) { perror(path); return 1; }
            count = 0;
            while (fgets(line, sizeof line, f)) {
                int len = (int)strcspn(line, "\n");
                keys[count] = malloc(len);
                memcpy(keys[count], line, len);
                lens[count++] = len;
            }
            fclose(f);
            unsigned long want = 0, got = 0;
            for (int i = 0; i < count; i++) {
                want += slotgen_slot(keys[i], lens[i]);
                got += keyHashSlot(keys[i], lens[i]);
            }
            if (want != got) { fprintf(stderr, "Redis's keyHashSlot disagrees\n"); return 1; }
            printf("c\tslot\tbytes\t%s\t%d\tslotgen\t%ld\n", kinds[k], lengths[n],
                   BEST(rounds, slotgen_slot(keys[i], lens[i])));
            printf("c\tslot\tbytes\t%s\t%d\tRedis keyHashSlot\t%ld\n", kinds[k], lengths[n],
                   BEST(rounds, keyHashSlot(keys[i], lens[i])));
            for (int i = 0; i < count; i++) free(keys[i]);
        }
    }
    /* tag_for_slot against an array of ready tags */
    static unsigned char ready[SLOTGEN_SLOTS][SLOTGEN_TAG_LEN];
    unsigned char tag[SLOTGEN_TAG_LEN];
    for (unsigned long s = 0; s < SLOTGEN_SLOTS; s++) slotgen_tag_for_slot(s + SLOTGEN_FIRST_SLOT, ready[s]);
    count = SLOTGEN_SLOTS;
    printf("c\ttag_for_slot\t-\t-\t-\tslotgen\t%ld\n",
           BEST(rounds, (slotgen_tag_for_slot(i, tag), tag[0] + tag[SLOTGEN_TAG_LEN - 1])));
    printf("c\ttag_for_slot\t-\t-\t-\tarray of tags\t%ld\n",
           BEST(rounds, (memcpy(tag, ready[i], SLOTGEN_TAG_LEN), tag[0] + tag[SLOTGEN_TAG_LEN - 1])));
    return 0;
}
