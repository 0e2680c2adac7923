import sys
from redis.crc import key_slot
sys.stdout.writelines(f"{key_slot(bytes.fromhex(line))}\n" for line in sys.stdin)
