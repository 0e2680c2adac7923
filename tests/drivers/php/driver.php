<?php
// The harness's driver for the PHP class `Slotgen` (the protocol: tests/src/harness.rs).
//
// Usage: php driver.php CLASS_FILE KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX

declare(strict_types=1);

// Every notice, warning and deprecation is a failure.
set_error_handler(function (int $level, string $message, string $file, int $line): bool {
    throw new ErrorException($message, 0, $level, $file, $line);
});

require $argv[1];

[$keysPath, $groupsPath, $few, $deep] = [$argv[2], $argv[3], (int) $argv[4], (int) $argv[5]];
[$prefix, $suffix, $badPrefix, $badSuffix] = array_map('hex2bin', array_slice($argv, 6, 4));

function take(int $slot, int $n): string
{
    $tags = [];
    foreach (Slotgen::tagsForSlot($slot) as $tag) {
        if (count($tags) === $n) {
            break;
        }
        $tags[] = bin2hex($tag);
    }
    return implode(',', $tags);
}

$out = [implode("\t", ['const', Slotgen::FIRST_SLOT, Slotgen::LAST_SLOT, Slotgen::SLOTS, Slotgen::TAG_LEN])];
$slots = range(Slotgen::FIRST_SLOT, Slotgen::LAST_SLOT);
foreach ($slots as $s) {
    $out[] = "tag\t$s\t" . bin2hex(Slotgen::tagForSlot($s));
}
foreach ($slots as $s) {
    $out[] = "tags\t$s\t" . take($s, $few);
}
foreach ([Slotgen::FIRST_SLOT, Slotgen::LAST_SLOT] as $s) {
    $out[] = "deep\t$s\t" . take($s, $deep);
}
foreach ($slots as $s) {
    $out[] = "key\t$s\t" . bin2hex(Slotgen::keyForSlot($prefix, $s, $suffix));
}
$keys = file($keysPath, FILE_IGNORE_NEW_LINES);
foreach ($keys as $k) {
    $out[] = "slot\t$k\t" . Slotgen::slot(hex2bin($k));
}
foreach ($keys as $k) {
    $out[] = "hashtag\t$k\t" . bin2hex(Slotgen::hashtag(hex2bin($k)));
}
$groups = [];
foreach (file($groupsPath, FILE_IGNORE_NEW_LINES) as $line) {
    [$count, $listed] = explode(':', $line, 2);
    $groups[] = array_slice(array_map('hex2bin', explode(',', $listed)), 0, (int) $count);
}
// sameSlot takes the keys as a Generator, sharedHashtag as an array: any iterable
foreach ($groups as $i => $group) {
    $out[] = "same\t$i\t" . (Slotgen::sameSlot((fn () => yield from $group)()) ?? '-');
}
foreach ($groups as $i => $group) {
    $shared = Slotgen::sharedHashtag($group);
    $out[] = "shared\t$i\t" . ($shared === null ? '-' : bin2hex($shared));
}

function refusal(array &$out, string $case, callable $call): void
{
    try {
        $out[] = "accepted\t$case\t" . var_export($call(), true);
    } catch (ValueError | InvalidArgumentException $e) {
        $code = ['', 'SLOT_OUT_OF_RANGE', 'PREFIX_HAS_DELIMITER', 'FRAME_NOT_SOLVABLE'][$e->getCode()];
        $out[] = "refused\t$case\t" . get_class($e) . " $code: " . $e->getMessage();
    }
}
refusal($out, 'tag_above', fn () => Slotgen::tagForSlot(Slotgen::LAST_SLOT + 1));
refusal($out, 'tag_below', fn () => Slotgen::tagForSlot(Slotgen::FIRST_SLOT - 1));
refusal($out, 'tags_above', fn () => Slotgen::tagsForSlot(Slotgen::LAST_SLOT + 1));
refusal($out, 'key_above', fn () => Slotgen::keyForSlot($prefix, Slotgen::LAST_SLOT + 1, $suffix));
refusal($out, 'key_rule', fn () => Slotgen::keyForSlot($badPrefix, Slotgen::FIRST_SLOT, $badSuffix));
echo implode("\n", $out), "\n";
