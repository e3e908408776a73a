#ifndef MIDIVIZ_FUZZER_DRIVER_H
#define MIDIVIZ_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>
/* libFuzzer's entry for programs that own main() (SwiftPM names an executable's main itself). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
