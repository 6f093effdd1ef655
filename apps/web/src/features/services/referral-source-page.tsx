import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ReferralSourcePage() {
  return <ScreenPlaceholder />;
}
