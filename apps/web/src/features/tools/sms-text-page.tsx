import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SmsTextPage() {
  return <ScreenPlaceholder />;
}
