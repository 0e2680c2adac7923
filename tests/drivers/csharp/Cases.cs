// Runs the harness's driver of several cases in one process, as Mono starts slowly (and its
// compiler, mcs, more so): each case's module and a copy of Driver.cs are in a namespace of
// their own, and each case's Driver.Main writes to a file of its own.
//
// Usage: mono cases.exe (NAMESPACE OUTPUT KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX)...
// writes what `NAMESPACE.Driver` prints to OUTPUT.

using System;
using System.IO;
using System.Reflection;
using System.Text;

internal static class Cases
{
    // Arguments per case: the namespace, the output file and the driver's eight.
    private const int PerCase = 10;

    private static void Main(string[] args)
    {
        TextWriter stdout = Console.Out;
        for (int at = 0; at < args.Length; at += PerCase)
        {
            var driverArgs = new string[PerCase - 2];
            Array.Copy(args, at + 2, driverArgs, 0, driverArgs.Length);
            using (var output = new StreamWriter(args[at + 1], false, new UTF8Encoding(false)))
            {
                Console.SetOut(output);
                try
                {
                    Type driver = Type.GetType(args[at] + ".Driver", true);
                    MethodInfo main = driver.GetMethod("Main", BindingFlags.NonPublic | BindingFlags.Static);
                    main.Invoke(null, new object[] { driverArgs });
                }
                finally
                {
                    Console.SetOut(stdout);
                }
            }
        }
    }
}
