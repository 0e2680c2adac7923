<?php
// slotgen's PHP module against predis's RedisStrategy::getSlotByKey (Debian's php-predis,
// /usr/share/php), in one process.
//
//   php bench.php MODULE_DIR KEY_DIR ROUNDS
//
// Prints tab-separated rows: language, function, key type, case, length, code, ns per key
// (the best of ROUNDS rounds over every key of the case).
declare(strict_types=1);

[, $moduleDir, $keyDir, $rounds] = $argv;
require "$moduleDir/slotgen.php";
$peer = null;
if (@include_once 'Predis/autoload.php') {
    $peer = new Predis\Cluster\RedisStrategy();
} else {
    fwrite(STDERR, "skip: predis is not installed (apt-get install php-predis)\n");
}

function best(callable $fn, array $keys, int $rounds): array
{
    $min = PHP_INT_MAX;
    $total = null;
    for ($r = 0; $r < $rounds; $r++) {
        $start = hrtime(true);
        $s = 0;
        foreach ($keys as $k) {
            $s += $fn($k);
        }
        $min = min($min, hrtime(true) - $start);
        if ($total !== null && $total !== $s) {
            throw new RuntimeException('rounds disagree');
        }
        $total = $s;
    }
    return [intdiv($min + intdiv(count($keys), 2), count($keys)), $total];
}

function row(...$cells): void
{
    echo implode("\t", $cells), "\n";
}

foreach (['plain', 'tag'] as $kind) {
    foreach ([3, 8, 22, 64, 1024] as $n) {
        $keys = file("$keyDir/$kind-$n.txt", FILE_IGNORE_NEW_LINES);
        [$ns, $want] = best([Slotgen::class, 'slot'], $keys, (int) $rounds);
        row('php', 'slot', 'string', $kind, $n, 'slotgen', $ns);
        if ($peer !== null) {
            [$ns, $got] = best([$peer, 'getSlotByKey'], $keys, (int) $rounds);
            if ($got !== $want) {
                throw new RuntimeException("predis disagrees on $kind-$n");
            }
            row('php', 'slot', 'string', $kind, $n, 'predis', $ns);
        }
    }
}

$slots = range(Slotgen::FIRST_SLOT, Slotgen::LAST_SLOT);
$ready = array_map([Slotgen::class, 'tagForSlot'], $slots);
row('php', 'tagForSlot', '-', '-', '-', 'slotgen', best(fn ($s) => strlen(Slotgen::tagForSlot($s)), $slots, (int) $rounds)[0]);
row('php', 'tagForSlot', '-', '-', '-', 'array of tags', best(fn ($s) => strlen($ready[$s]), $slots, (int) $rounds)[0]);
// what a call costs: a function that only indexes the array
$index = fn (int $s): string => $ready[$s];
row('php', 'tagForSlot', '-', '-', '-', 'a function indexing the array', best(fn ($s) => strlen($index($s)), $slots, (int) $rounds)[0]);
row('php', 'keyForSlot', 'string', '-', '-', 'slotgen', best(fn ($s) => strlen(Slotgen::keyForSlot('user:', $s, ':cart')), $slots, (int) $rounds)[0]);
row('php', 'keyForSlot', 'string', '-', '-', 'array of tags + concat', best(fn ($s) => strlen('user:{' . $ready[$s] . '}:cart'), $slots, (int) $rounds)[0]);
