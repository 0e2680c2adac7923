<?php
declare(strict_types=1);
require $argv[1];
require $argv[2];
foreach (['a' => A\Slots::class, 'b' => B\Slots::class] as $name => $class) {
    echo implode("\t", ['pair', $name, $class::slot('123456789'), bin2hex($class::tagForSlot(1)),
        bin2hex($class::tagForSlot($class::SLOTS - 1))]), "\n";
}
