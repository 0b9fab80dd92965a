// Heap blocks allocated and not yet freed by the whole test process (heap_blocks.cpp).
#ifndef TESSERA_TESTS_UNIT_PROC_HEAP_BLOCKS_H
#define TESSERA_TESTS_UNIT_PROC_HEAP_BLOCKS_H

long heap_blocks_live();

// False where this test cannot stand in for malloc (a sanitizer owns it); heap_blocks_why_not() says why.
bool heap_blocks_counted();
const char *heap_blocks_why_not();

#endif
