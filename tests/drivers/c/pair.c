#include <stdio.h>
#include "a.h"
#include "b.h"

static void hex(const unsigned char *bytes, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        printf("%02x", bytes[i]);
    }
}

int main(void) {
    unsigned char a_tag[A_TAG_LEN], b_tag[B_TAG_LEN];
    printf("pair\ta\t%lu\t", a_slot("123456789", 9));
    if (a_tag_for_slot(1, a_tag) != A_OK) return 1;
    hex(a_tag, A_TAG_LEN);
    putchar('\t');
    if (a_tag_for_slot(A_SLOTS - 1, a_tag) != A_OK) return 1;
    hex(a_tag, A_TAG_LEN);
    printf("\npair\tb\t%lu\t", b_slot("123456789", 9));
    if (b_tag_for_slot(1, b_tag) != B_OK) return 1;
    hex(b_tag, B_TAG_LEN);
    putchar('\t');
    if (b_tag_for_slot(B_SLOTS - 1, b_tag) != B_OK) return 1;
    hex(b_tag, B_TAG_LEN);
    putchar('\n');
    return 0;
}
