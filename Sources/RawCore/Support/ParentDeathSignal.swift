#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Asks Linux to send `signal` to this process when the thread that started it ends (`prctl(PR_SET_PDEATHSIG)`).
/// The request survives `execve` and is not inherited by this process's own children. It covers only a parent
/// that ends after the call: the caller compares `getppid()` with the parent it expects afterwards.
///
/// Throws the `Errno` of the kernel's refusal (`EINVAL` for a bad signal), or `ENOSYS` where there is no `prctl`
/// (any system but Linux).
package func signalOnParentDeath(_ signal: Int32) throws(Errno) {
    #if os(Linux)
    // Swift does not import C's variadic functions, and `prctl(int, ...)` is one. It is called here through a
    // fixed prototype of five arguments, which passes them in the same registers on x86-64 and arm64 Linux (glibc
    // reads its four extra arguments as unsigned longs; on x86-64 %al, the variadic callee's count of vector
    // registers to save, is then left unset, which at most makes it save all eight). No C module for one call.
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    let setParentDeathSignal: Int32 = 1   // PR_SET_PDEATHSIG, <linux/prctl.h>
    guard signal > 0 else { throw Errno.invalidArgument }   // 0 would clear the request instead
    guard let symbol = dlsym(nil, "prctl") else { throw Errno.noFunction }   // nil: RTLD_DEFAULT
    let prctl = unsafeBitCast(symbol, to: Prctl.self)
    _ = try retryingInterrupts { prctl(setParentDeathSignal, UInt(signal), 0, 0, 0) }
    #else
    throw Errno.noFunction
    #endif
}
