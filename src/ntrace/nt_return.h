/* N-Trace 9.2: the implicit-return stack is at most 32 deep
 * (rvtReturnStackDepth); encoder and decoder keep it in a
 * src/flow/flow_stack.h stack of this many slots.  Internal header. */
#ifndef RVT_NT_RETURN_H
#define RVT_NT_RETURN_H

#define NT_RETURN_DEPTH_MAX 32

#endif
